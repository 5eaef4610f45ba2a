alias entropic-bound-paper-2026-12 Hvm+CDarSP/5O5AMA0/JQMQjRQaPjijZNSDUZmcwvnlDhEFPRQJB8H2yl0ZYueghQ5XZLK1+jaBCvFp9qtgBBA==
