entry entropic-bound-paper-2026-12 bNjWVuRpbMrMqo5CkOIkoCjD42AmIblOqcfVeL/MPg8Fkli/ifJncphajXGilFu+5g/r0eiA3RDF1KchKXkCCA==
