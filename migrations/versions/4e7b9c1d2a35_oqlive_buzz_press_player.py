"""Who pressed (issue 15, OQ-4): a press keeps the phone that made it
(``buzz_press.phone``, the key its clock samples are kept under) and the player's name
as it stood then (``buzz_press.player``), so the host sees "Вася (Сови)"

Revision ID: 4e7b9c1d2a35
Revises: f2a6c8d1e3b5
Create Date: 2026-12-02 01:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = "4e7b9c1d2a35"
down_revision = "f2a6c8d1e3b5"
branch_labels = None
depends_on = None


def upgrade():
    # Earlier presses did not say who pressed: they keep the team alone (NULL).
    with op.batch_alter_table("buzz_press", schema=None) as batch_op:
        batch_op.add_column(sa.Column("phone", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("player", sa.String(length=60), nullable=True))


def downgrade():
    with op.batch_alter_table("buzz_press", schema=None) as batch_op:
        batch_op.drop_column("player")
        batch_op.drop_column("phone")
