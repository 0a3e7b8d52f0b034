xchg ax, ax
xchg ax, ax
xchg ax, ax
xchg ax, ax
