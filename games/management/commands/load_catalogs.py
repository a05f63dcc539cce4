from typing import Any

from django.core.management.base import BaseCommand

from games.catalog_loader import load_all


class Command(BaseCommand):
    help = "Load (or refresh) every game's card catalog from the data files. Safe to re-run."

    def handle(self, *args: Any, **options: Any) -> None:
        for game, created, updated, removed in load_all():
            self.stdout.write(f"{game}: {created} created, {updated} updated, {removed} removed")
