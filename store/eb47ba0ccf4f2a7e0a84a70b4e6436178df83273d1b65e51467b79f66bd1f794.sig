alias entropic-bound-migration-2026-12-rules Q9sCd+u8ALwTmwXu64Zd4OT9TzcJT+pUv/AMopAn5yg2Tf6fWA10tM2mA/tPg6bZS2rWutqQ0lZsZt3vO0bACg==
