from django.contrib import admin

from games.models import Card, CardType


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["name_en", "name_it", "game", "kind", "slug", "cost", "damage", "priority"]
    list_filter = ["game", "kind", "colours", "cost"]
    search_fields = ["name_en", "name_it", "slug", "text_en", "text_it"]
    ordering = ["game", "kind", "order"]
    readonly_fields = ["search"]


@admin.register(CardType)
class CardTypeAdmin(admin.ModelAdmin):
    list_display = ["name_en", "name_it", "game", "slug", "order"]
    list_filter = ["game"]
    search_fields = ["name_en", "name_it", "slug"]
