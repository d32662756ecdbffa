"""verdict: the checker's reason as a code and its values (issue 16 §8, docs/checker.md)

Revision ID: 7d2e4f6a8c10
Revises: 7d2e4f6a8b10
Create Date: 2026-12-01 15:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = "7d2e4f6a8c10"
down_revision = "7d2e4f6a8b10"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("verdict", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reason_code", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("reason_params", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("verdict", schema=None) as batch_op:
        batch_op.drop_column("reason_params")
        batch_op.drop_column("reason_code")
