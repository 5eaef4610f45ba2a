entry entropic-bound-paper-2026-12 4tQ3aU1gbeZ61AZ++LN/TGc5BcZs0SEciZxcB3PK7+XUu1vRlKlN4OV6o5Z95DGKtpfHecCFNtRSNkMqhGq0BQ==
