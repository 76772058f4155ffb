"""Goals over the documentation fixture site, worded the way people ask, with where the answer really is.

Each goal starts on the docs' home page. ``answer`` holds text the final answer must contain (any one of the
alternatives); ``page`` the path of the page the answer was read on; ``section`` the heading of the section
(or table caption) it came from, or None when the goal asks for a page rather than a fact.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DocGoal:
    goal: str
    answer: tuple[str, ...]
    page: str
    section: str | None


DOC_GOALS: tuple[DocGoal, ...] = (
    # reference page: definition lists, many sections that all say "Default:"
    DocGoal("What is the default value of result_ttl?", ("86400",), "/reference.html", "result_ttl"),
    DocGoal("what's the default broker URL", ("redis://localhost:6379/0",), "/reference.html", "broker_url"),
    DocGoal(
        "In the Logging section of the reference, what is the default log level?",
        ("INFO",),
        "/reference.html",
        "log_level",
    ),
    DocGoal("Tell me the type of the max_retries option", ("integer",), "/reference.html", "max_retries"),
    DocGoal("What is the default job timeout?", ("300",), "/reference.html", "job_timeout"),
    DocGoal(
        "In the Security section, what is the default of tls_verify?",
        ("true",),
        "/reference.html",
        "tls_verify",
    ),
    DocGoal("What does the prefetch_count setting do?", ("reserves",), "/reference.html", "prefetch_count"),
    DocGoal("Which port does the metrics endpoint listen on?", ("9187",), "/reference.html", "metrics_port"),
    DocGoal("find the default scheduler_timezone", ("UTC",), "/reference.html", "scheduler_timezone"),
    # guide chapters, one to two links away
    DocGoal(
        "Which Python version does Tidewater require?",
        ("3.10",),
        "/guide/getting-started.html",
        "Requirements",
    ),
    DocGoal(
        "How many worker processes does a worker start by default?",
        ("4",),
        "/guide/workers.html",
        "Concurrency",
    ),
    DocGoal(
        "How long does a worker wait for running jobs when it shuts down?",
        ("30 seconds",),
        "/guide/workers.html",
        "Shutting down cleanly",
    ),
    DocGoal(
        "How many times is a failed job retried?",
        ("3",),
        "/guide/scheduling.html",
        "Retries",
    ),
    DocGoal(
        "What is the official Docker image for the worker?",
        ("tidewater/worker:2.4",),
        "/guide/deploy.html",
        "Containers",
    ),
    DocGoal(
        "On which path are health checks answered?", ("/healthz",), "/guide/deploy.html", "Health checks"
    ),
    # release table: row and column
    DocGoal("When was version 2.3.0 released?", ("2025-09-08",), "/releases.html", "Releases"),
    DocGoal(
        "Which Python versions does release 2.2.0 support?", ("3.9 – 3.12",), "/releases.html", "Releases"
    ),
    DocGoal("What is the status of version 1.9.4?", ("End of life",), "/releases.html", "Releases"),
    # FAQ: answers inside closed <details> and an aria-expanded accordion
    DocGoal("Can I run Tidewater on Windows?", ("WSL",), "/faq.html", "Can I run Tidewater on Windows?"),
    DocGoal(
        "Which license is Tidewater released under?",
        ("Apache License 2.0",),
        "/faq.html",
        "Which license is Tidewater released under?",
    ),
    DocGoal(
        'How do I fix the error "broker unreachable"?',
        ("broker_url",),
        "/faq.html",
        "The worker says “broker unreachable”",
    ),
    # a list behind "Load more" and a changelog that grows as you scroll
    DocGoal("Who maintains the tidewater-s3 plugin?", ("Kwame Mensah",), "/plugins.html", "tidewater-s3"),
    DocGoal("What changed in version 1.2.0?", ("several queues",), "/changelog.html", "Version 1.2.0"),
    # only the site's search finds it (no page links to the recipes)
    DocGoal(
        "How do I limit how often a job runs? Look for rate limiting.",
        ("10/m", "ten times a minute"),
        "/recipes/rate-limiting.html",
        None,
    ),
    # navigation goals: the page is the answer
    DocGoal("Open the deployment guide", (), "/guide/deploy.html", None),
    DocGoal("go to the configuration reference", (), "/reference.html", None),
    DocGoal("Take me to the plugin directory", (), "/plugins.html", None),
)
