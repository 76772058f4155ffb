"""Model plumbing for the ``openai`` backend: the chat client with timeouts and retries (``client``), lenient
JSON parsing (``parsing``), reply validation (``validation``), prompt assembly with untrusted-content delimiting
(``prompting``, ``untrusted``), and usage/cost accounting (``usage``).

Import from the submodules: this package stays empty so the offline planner never loads langchain-openai.
"""
