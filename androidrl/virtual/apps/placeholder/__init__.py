"""Stand-ins for the stock apps the phone does not have yet, and for apps installed from an APK."""
