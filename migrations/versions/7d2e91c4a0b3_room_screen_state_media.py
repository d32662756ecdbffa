"""screen_state.media: the desk's play/pause/replay command for the projector (issue 19)

Revision ID: 7d2e91c4a0b3
Revises: d7b3e9a41c05
Create Date: 2026-12-01 16:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "7d2e91c4a0b3"
down_revision = "d7b3e9a41c05"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("screen_state", schema=None) as batch_op:
        batch_op.add_column(sa.Column("media", sa.String(length=24), nullable=True))


def downgrade():
    with op.batch_alter_table("screen_state", schema=None) as batch_op:
        batch_op.drop_column("media")
