"""Своя игра: a "ПРОПУСТИЛИ" claim waits for the host (issue 29, SI-2.4): si_answer.claim

Revision ID: e9b2c4d6f8a1
Revises: 9c4e2a7b1d3f
Create Date: 2026-12-06 23:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "e9b2c4d6f8a1"
down_revision = "9c4e2a7b1d3f"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("si_answer") as batch:
        batch.add_column(sa.Column("claim", sa.String(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table("si_answer") as batch:
        batch.drop_column("claim")
