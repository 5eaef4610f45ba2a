alias entropic-bound-2026-12-07-session TffFsCwX90udNS+UcK2oUl4QqGttd4lyJsRs3qXaXnJZ+D2r0k3TjGOcbk++Vx4iFC1saf05pM6+a/j8BJjbAA==
