entry entropic-bound-paper-2026-12 R5yo7Zb8wqsw9s6AOE5QT8NHxi4GNrHnlbmyxfN/kYo9uBIQeITG6ts5UCTq6B/x9aAuFR/t5k/tyy+0BcImBA==
