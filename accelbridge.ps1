# The Accelbridge command line on Windows (PowerShell 5.1 or 7): builds the project first when it is not built, then runs
# the CLI as ./accelbridge does on Linux and macOS. A source change is not noticed here: delete tools\target to rebuild.
# Needs a JDK 17+ (java on PATH) and Node.js for the build; browsers are found where Windows installs them.
$ErrorActionPreference = 'Stop'
$root = $PSScriptRoot
$cpFile = Join-Path $root 'tools\target\classpath.txt'
$app = Join-Path $root 'tools\target\classes'
$env:PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1'
if (-not (Test-Path $cpFile)) {
    [Console]::Error.WriteLine('[accelbridge] building (first use)...')
    Push-Location $root
    try {
        & (Join-Path $root 'mvnw.cmd') -B -ntp -q -DskipTests package
        if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
    } finally {
        Pop-Location
    }
}
# the class path is read whole (cmd.exe's set /p would cut it at 1,024 characters)
$cp = (Get-Content -Raw $cpFile).Trim()
$opts = @('-XX:TieredStopAtLevel=1')
if ($env:ACCELBRIDGE_JAVA_OPTS) { $opts += ($env:ACCELBRIDGE_JAVA_OPTS -split '\s+' | Where-Object { $_ }) }
& java @opts "-Daccelbridge.home=$root" -cp "$app;$cp" dev.accelbridge.tools.cli.Main @args
exit $LASTEXITCODE
