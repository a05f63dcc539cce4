from django.urls import path

from games.adrenaline import views as adrenaline

urlpatterns = [
    path("adrenaline/shot", adrenaline.shot_helper, name="adrenaline_shot"),
]
