"""Record goals (file a ticket, comment, change a field, close, edit a wiki page, open a described record):
``goal`` reads what the wording reliably carries, ``forms`` lets the page decide fields and controls,
``plan`` finds the record, fills and saves, ``proof`` reads the record again to prove the change."""
