alias entropic-bound-migration-2026-12-rules Jgdn4vQBEZDLRhP/JaxCRUhVIfzxV4gpqTyvUbe/MaeThp3/qJfE/WmeXZmYFeQtuBAqVYqQboaomXvEcmCmAQ==
