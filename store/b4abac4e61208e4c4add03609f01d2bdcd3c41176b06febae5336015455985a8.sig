alias entropic-bound-migration-2026-12-rules /8MakYZwP3jBQkpel8sZyrzL93e+rJLuYaWWpZHl4EmxipjocGcQ7KX7UC4QQWxkMkgVpVceH61kpG//hB/EDQ==
