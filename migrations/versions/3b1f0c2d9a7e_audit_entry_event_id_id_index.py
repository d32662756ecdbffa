"""audit_entry: index (event_id, id) for live.version()

Revision ID: 3b1f0c2d9a7e
Revises: 88e007c0eb1f
Create Date: 2026-11-30 06:10:00

"""
from alembic import op

revision = "3b1f0c2d9a7e"
down_revision = "88e007c0eb1f"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.create_index("ix_audit_entry_event_id_id", ["event_id", "id"], unique=False)
        batch_op.drop_index("ix_audit_entry_event_id")


def downgrade():
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.create_index("ix_audit_entry_event_id", ["event_id"], unique=False)
        batch_op.drop_index("ix_audit_entry_event_id_id")
