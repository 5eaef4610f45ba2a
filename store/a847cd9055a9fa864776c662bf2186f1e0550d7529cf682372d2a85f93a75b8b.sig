alias entropic-bound-migration-2026-12-rules z83ZPN50W/eG+WdOZwMIrWmYmwVeyLrQT/+EKkFYRp5SahbotL+a66Zkd3i/2busa5HXQGopyJlYmehp7Qr5DQ==
