print("limen")
