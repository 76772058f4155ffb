"""Shopdesk: a small Django project (customers and orders in the Django admin), written by the tests, run from
Django installed off the package index into a virtualenv of its own under the user's cache folder.

The virtualenv and the seeded database are kept in the cache (keyed by the Django version and this project's
source), so only the first run installs and migrates; every goal then gets a fresh copy of the seeded database.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

DJANGO = "django==5.2.19"
USER, PASSWORD = "manager", "shop-manager-1"

#: Where the virtualenv and seeded database live; read once at import, before tests move HOME.
CACHE_DIR = Path(
    os.environ.get("WAYFINDER_APPS_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wayfinder" / "apps"
)

FILES = {
    "manage.py": """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shopdesk.settings")
from django.core.management import execute_from_command_line
execute_from_command_line(sys.argv)
""",
    "shopdesk/__init__.py": "",
    "shopdesk/settings.py": """
import os
from pathlib import Path
BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "shopdesk-test-only-not-secret"
DEBUG = True  # the admin's static files are served by runserver only with DEBUG on
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
    "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles", "orders"]
MIDDLEWARE = ["django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware", "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware", "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware"]
ROOT_URLCONF = "shopdesk.urls"
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [], "APP_DIRS": True,
    "OPTIONS": {"context_processors": ["django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth", "django.contrib.messages.context_processors.messages"]}}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ["SHOPDESK_DB"]}}
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_TZ = True
STATIC_URL = "static/"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
# Django's own advice for test settings: a fast hasher (the default PBKDF2 costs a second of CPU per login)
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
""",
    "shopdesk/urls.py": """
from django.contrib import admin
from django.urls import path
from django.views.generic import RedirectView
admin.site.site_header = "Shopdesk administration"
urlpatterns = [path("admin/", admin.site.urls), path("", RedirectView.as_view(url="/admin/"))]
""",
    "orders/__init__.py": "",
    "orders/migrations/__init__.py": "",
    "orders/models.py": """
from django.db import models

class Customer(models.Model):
    name = models.CharField(max_length=100)
    email = models.EmailField()
    city = models.CharField(max_length=60)

    def __str__(self):
        return self.name

class Order(models.Model):
    STATUS_CHOICES = [("pending", "Pending"), ("paid", "Paid"), ("shipped", "Shipped"),
                      ("cancelled", "Cancelled")]
    number = models.CharField("order number", max_length=20, unique=True)
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT)
    placed_on = models.DateField("placed on")
    status = models.CharField(max_length=12, choices=STATUS_CHOICES, default="pending")
    notes = models.TextField(blank=True)

    def __str__(self):
        return f"Order {self.number}"
""",
    "orders/admin.py": """
from django.contrib import admin
from .models import Customer, Order

@admin.register(Customer)
class CustomerAdmin(admin.ModelAdmin):
    list_display = ("name", "email", "city")
    list_filter = ("city",)
    search_fields = ("name", "email")

@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ("number", "customer", "placed_on", "status")
    list_filter = ("status", "placed_on")
    search_fields = ("number", "customer__name", "notes")
""",
    "orders/management/__init__.py": "",
    "orders/management/commands/__init__.py": "",
    "orders/management/commands/seedshop.py": """
import datetime as dt
from django.core.management.base import BaseCommand
from orders.models import Customer, Order

CUSTOMERS = [("Ana Lima", "ana.lima@example.com", "Lisbon"), ("Bruno Keller", "bruno@keller.example", "Zurich"),
    ("Chen Wei", "chen.wei@example.com", "Singapore"), ("Dana Kowalski", "dana.k@example.com", "Krakow"),
    ("Emeka Obi", "emeka@obi.example", "Lagos"), ("Test Customer", "test@example.invalid", "Nowhere")]
ORDERS = [("SO-1001", 1, "2026-09-02", "shipped", "Gift wrap requested."),
    ("SO-1002", 2, "2026-09-15", "paid", "Leave at the reception."),
    ("SO-1003", 3, "2026-09-28", "pending", ""),
    ("SO-1004", 1, "2026-10-03", "paid", ""),
    ("SO-1005", 4, "2026-10-14", "pending", "Call before delivery."),
    ("SO-1006", 5, "2026-10-20", "shipped", ""),
    ("SO-1007", 2, "2026-10-25", "pending", "Customer may cancel."),
    ("SO-1008", 3, "2026-11-01", "paid", ""),
    ("SO-1009", 4, "2026-11-04", "pending", ""),
    ("SO-1010", 5, "2026-11-08", "paid", "Invoice to the company address."),
    ("SO-1011", 1, "2026-11-12", "cancelled", "Duplicate of SO-1004."),
    ("SO-1012", 3, "2026-11-18", "shipped", "")]

class Command(BaseCommand):
    help = "Seed the customers and orders of the tests."

    def handle(self, *args, **options):
        for name, email, city in CUSTOMERS:
            Customer.objects.create(name=name, email=email, city=city)
        for number, customer, placed, status, notes in ORDERS:
            Order.objects.create(number=number, customer_id=customer, placed_on=dt.date.fromisoformat(placed),
                                 status=status, notes=notes)
""",
}


class AppUnavailable(RuntimeError):
    """The application could not be installed or started; ``offline`` when the package index was unreachable."""

    def __init__(self, message: str, offline: bool = False) -> None:
        super().__init__(message)
        self.offline = offline


def _fingerprint() -> str:
    text = DJANGO + sys.version + "".join(f"{k}\n{v}" for k, v in sorted(FILES.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _run(
    cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None, timeout: float = 600
) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        offline = any(
            w in (proc.stderr or "")
            for w in ("NewConnectionError", "Temporary failure", "No matching distribution")
        )
        raise AppUnavailable(f"{' '.join(cmd[:4])} failed: {' | '.join(tail)}", offline=offline)


def ensure_installed() -> tuple[Path, Path, float]:
    """(the venv's python, the project dir with its seeded database, seconds spent installing now)."""
    home = CACHE_DIR / f"shopdesk-{_fingerprint()}"
    python = home / "venv" / "bin" / "python"
    seed = home / "seed.sqlite3"
    started = time.perf_counter()
    with _locked(CACHE_DIR / ".shopdesk.lock"):
        if not (home / ".ready").exists():
            shutil.rmtree(home, ignore_errors=True)
            _run([sys.executable, "-m", "venv", str(home / "venv")])
            _run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", DJANGO])
            for rel, text in FILES.items():
                target = home / "project" / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text.lstrip("\n"), encoding="utf-8")
            env = _env(seed)
            manage = [str(python), "manage.py"]
            _run([*manage, "makemigrations", "orders", "--noinput"], env, home / "project")
            _run([*manage, "migrate", "--noinput"], env, home / "project")
            env = {**env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD}
            _run([*manage, "createsuperuser", "--noinput", "--username", USER, "--email", "manager@shop.example"],
                 env, home / "project")  # fmt: skip
            _run([*manage, "seedshop"], env, home / "project")
            (home / ".ready").write_text("ok", encoding="utf-8")
    return python, home / "project", time.perf_counter() - started


def _env(db: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "DJANGO"))}
    return {**env, "SHOPDESK_DB": str(db), "PYTHONDONTWRITEBYTECODE": "1"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DjangoServer:
    """``manage.py runserver`` on a free loopback port over ``db``, in its own process group."""

    def __init__(self, python: Path, project: Path, db: Path) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self._cmd = [str(python), "manage.py", "runserver", f"127.0.0.1:{self.port}", "--noreload"]
        self._project, self._env = project, _env(db)
        self._proc: subprocess.Popen[bytes] | None = None
        # runserver logs every request: a pipe nobody reads would fill up and stop it
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by stop()

    def start(self, timeout: float = 90.0) -> DjangoServer:
        self._proc = subprocess.Popen(
            self._cmd, cwd=self._project, env=self._env, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=self._log,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                self._log.seek(0)
                err = self._log.read().decode(errors="replace")
                raise AppUnavailable(f"runserver exited with {self._proc.returncode}: {err.strip()[-300:]}")
            try:
                with urllib.request.urlopen(self.base_url + "/admin/login/", timeout=5) as resp:
                    if resp.status == 200:
                        return self
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise AppUnavailable(f"runserver did not answer on {self.base_url} within {timeout:.0f} s")

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, 9)
            proc.wait(timeout=10)
        self._log.close()
