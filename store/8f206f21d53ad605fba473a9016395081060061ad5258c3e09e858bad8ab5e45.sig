alias entropic-bound-migration-2026-12-rules xlwoZoIrx1yBDIM2LdmmFo8lJHR+6+VduFPJqQpXKE++ccWXBz/q7PmnCyEHqHtuWWhjjjF+vuTAGSbFC+akDg==
