alias entropic-bound-paper-2026-12 xZeEgw9iGuM1ZwMn5TAq5+tVGYsiG35pWJi5qTGzl46seaBjSK3HB7l//pG5YgFurZU7+WN8Kk78L14IqZuNAQ==
