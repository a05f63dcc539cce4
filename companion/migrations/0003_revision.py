from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0002_timers_and_bots"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamesession",
            name="revision",
            field=models.PositiveBigIntegerField(default=0),
        ),
    ]
