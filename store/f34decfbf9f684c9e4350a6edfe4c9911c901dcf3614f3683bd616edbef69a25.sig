entry entropic-bound-paper-2026-12 mfQISFtb1lPKKUVWu/u8+94slU/tO9Z7yJyAKg7pxJ8P4wqIQhFRnPDbI6WzDH5Q+AG1e/o+6itFtDzkwku3DQ==
