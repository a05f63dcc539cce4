"""Typo-tolerant card search.

``Card.names``: both names folded (the column the close-match search compares a
query with), filled here for rows loaded before it existed.

On PostgreSQL only: the ``pg_trgm`` extension (trigram word similarity, the
database's own close-match search). On SQLite that step does nothing: the embedded
default matches with RapidFuzz in Python (games/card_search.py). No trigram index:
with the catalog's ~120 rows the planner scans the table anyway (about 1 ms on
``names``), and a GIN index forced on the long ``search`` column took longer to
plan (~10 ms) than the scan it saved.
"""

from django.contrib.postgres.operations import CreateExtension
from django.db import migrations, models

from games.text_fold import fold


def fill_names(apps, schema_editor):
    Card = apps.get_model("games", "Card")
    for card in Card.objects.using(schema_editor.connection.alias).only("name_en", "name_it"):
        card.names = fold(f"{card.name_en} {card.name_it}")
        card.save(update_fields=["names"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_card_reference"),
    ]

    operations = [
        migrations.AddField(
            model_name="card",
            name="names",
            field=models.TextField(
                blank=True, editable=False, help_text="Names in both languages, folded"
            ),
        ),
        migrations.RunPython(fill_names, migrations.RunPython.noop),
        CreateExtension("pg_trgm"),  # a no-op on any other database
    ]
