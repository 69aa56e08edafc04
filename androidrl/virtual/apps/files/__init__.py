"""``com.android.documentsui`` (Files) and ``com.android.htmlviewer``: browse and change ``/sdcard``, view text."""
