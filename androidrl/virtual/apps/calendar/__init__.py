"""AOSP Calendar (``com.android.calendar``): month, week, day and agenda views, event details and editor."""
