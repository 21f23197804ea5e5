print("load")
