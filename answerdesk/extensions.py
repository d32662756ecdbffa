"""Flask extensions, created unbound so that create_app() can configure each app."""

from typing import TYPE_CHECKING

from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
# Every table's base class. db.Model is Base with Flask-SQLAlchemy's engine binding;
# mypy cannot take an attribute of a variable as a base class, so it sees Base.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()
