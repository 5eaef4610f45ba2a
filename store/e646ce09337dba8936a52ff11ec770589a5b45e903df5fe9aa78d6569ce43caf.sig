alias entropic-bound-migration-2026-12-rules A79eHvBhC44u32AEHVYTKbpAbUBtmPegJB/hTWQejq6QD/fh44xNcSZlfDH6/9crAEddR+mzqryaCUZszeYdBQ==
