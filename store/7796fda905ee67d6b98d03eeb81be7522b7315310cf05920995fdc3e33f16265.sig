entry entropic-bound-2026-12-07-session X7UgF/8RUoX/eNo8sp4Ukjb7E72gz1YeDl9BeLaA5dyjgeoNVDPzfJOVEqCOxTjJ+lWyq3q+sjTzMN2dil10BA==
