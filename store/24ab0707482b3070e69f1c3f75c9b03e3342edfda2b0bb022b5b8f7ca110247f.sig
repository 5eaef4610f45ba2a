entry entropic-bound-paper-2026-12 3DrIn/XJnHAqPQSTEt14/D9f87N/BpLwkEfTv65vYiim+wiEdPQd1xeMWFAGTDCi+otiABn+aap5cyYC5iDhAA==
