from django.contrib import admin

from games.models import Card


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["name_en", "name_it", "game", "kind", "slug"]
    list_filter = ["game", "kind"]
    search_fields = ["name_en", "name_it", "slug", "text_en", "text_it"]
    ordering = ["game", "kind", "order"]
