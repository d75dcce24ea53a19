@echo off
rem The Accelbridge command line on Windows: runs accelbridge.ps1 beside it (PowerShell ships with Windows).
powershell -NoProfile -ExecutionPolicy Bypass -File "%~dp0accelbridge.ps1" %*
exit /b %ERRORLEVEL%
