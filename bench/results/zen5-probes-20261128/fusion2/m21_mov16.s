mov dx, di
