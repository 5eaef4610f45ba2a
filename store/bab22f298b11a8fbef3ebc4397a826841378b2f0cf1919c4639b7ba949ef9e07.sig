alias entropic-bound-paper-2026-12 FDeIB21l/YRk2JnSTwRw/kPgVhuTW536BcXjkaQpb9s2j2zL+gghPWtTr1BUueqHQgOW3uadg4ytsyF+7dXSBA==
