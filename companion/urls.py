from django.urls import include, path

from companion import views

urlpatterns = [
    path("", views.home, name="home"),
    path("new/<str:game>/", views.new_session, name="new_session"),
    path("join/", views.join, name="join"),
    path("j/<str:code>/", views.join_code, name="join_code"),
    path("s/<str:code>/", views.session_page, name="session"),
    path("s/<str:code>/qr.svg", views.qr_code, name="qr"),
    path("s/<str:code>/act", views.act, name="act"),
    path("s/<str:code>/undo", views.undo, name="undo"),
    path("s/<str:code>/host", views.host, name="host"),
    path("s/<str:code>/again", views.play_again, name="again"),
    path("s/<str:code>/seats/<int:index>/claim", views.claim, name="claim"),
    path("s/<str:code>/seats/<int:index>/free", views.free, name="free"),
    path("s/<str:code>/seats/<int:index>/rename", views.rename, name="rename"),
    path("s/<str:code>/seats/<int:index>/bot", views.bot, name="bot"),
    path("s/<str:code>/seats/<int:index>/rejoin/<str:key>/", views.rejoin, name="rejoin"),
    # The watch link holds no join code: nobody can get from it to a seat.
    path("w/<str:spectator_key>/", views.watch, name="watch"),
    path("s/<str:code>/", include("games.urls")),
]
