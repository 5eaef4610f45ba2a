entry entropic-bound-paper-2026-12 yjKJ39hPa3M7Yk+8Ck7EIlc5XJolr/MAFZj676SdbMAcPx6KQlNGTk2cSQXg2udj+26+j/LQFm3RDqKsF7PqBQ==
