"""Apps installed from an APK (``pm install``): the phone cannot run their code; they open to a titled empty screen."""
