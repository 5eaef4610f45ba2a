alias entropic-bound-2026-12-07-session 6frX8jECbM0KLMInw7/s/VIq747ZPwg8806fOnLtaelBbgv8WDVQ5Jd+hkZL9PdwOzOULdqdpfOl/TNP9ZyYDA==
