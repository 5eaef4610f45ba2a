entry entropic-bound-paper-2026-12 lhQ8eshVaCu6AIo16f5nBljNnvTanN9LqP+ZcSvqFXL/EN+UaklfrAwt7kWe+nWl+5tHim3Dxo+wmuIoNIVGAA==
