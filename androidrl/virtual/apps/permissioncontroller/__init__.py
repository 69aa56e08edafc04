"""PermissionController (``com.android.permissioncontroller``): the runtime-permission dialogs apps ask for."""
