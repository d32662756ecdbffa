"""event.appeals: an event may allow or refuse disputes against its game's default
(BG-D1 takes them; CHGK-1.2 takes none unless the event allows them)

Revision ID: e4a1c7b2d9f0
Revises: 7d2e91c4a0b3
Create Date: 2026-12-01 17:20:00

"""
import sqlalchemy as sa
from alembic import op

revision = "e4a1c7b2d9f0"
down_revision = "7d2e91c4a0b3"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.add_column(sa.Column("appeals", sa.Boolean(), nullable=True))


def downgrade():
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_column("appeals")
