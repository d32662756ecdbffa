"""audit_entry: partial index (event_id, id) of entries that are not phone saves,
for live.screen_version()

Revision ID: 5c4e2a7d1b90
Revises: 3b1f0c2d9a7e
Create Date: 2026-11-30 12:55:00

"""
import sqlalchemy as sa
from alembic import op

revision = "5c4e2a7d1b90"
down_revision = "3b1f0c2d9a7e"
branch_labels = None
depends_on = None

NOT_A_PHONE_SAVE = sa.text("action <> 'answer.save'")


def upgrade():
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.create_index("ix_audit_entry_event_id_id_not_phone_save", ["event_id", "id"],
                              unique=False, postgresql_where=NOT_A_PHONE_SAVE,
                              sqlite_where=NOT_A_PHONE_SAVE)


def downgrade():
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_entry_event_id_id_not_phone_save")
