"""event: desk login generations, so a logout or a new assistant password ends every
copy of a login (issue 17 #7)

Revision ID: 7d2e4f6a8b10
Revises: 9d2e6f1a4c37
Create Date: 2026-12-01 15:50:00

"""
import sqlalchemy as sa
from alembic import op

revision = "7d2e4f6a8b10"
down_revision = "9d2e6f1a4c37"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.add_column(sa.Column("host_login_generation", sa.Integer(), nullable=False,
                                      server_default="0"))
        batch_op.add_column(sa.Column("assistant_login_generation", sa.Integer(),
                                      nullable=False, server_default="0"))


def downgrade():
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_column("assistant_login_generation")
        batch_op.drop_column("host_login_generation")
