#!/usr/bin/env bash
# Install (or remove) MCP Inspector as a desktop app for the current user, from this checkout or unpacked sdist:
#   packaging/install-desktop-entry.sh [--exec COMMAND] [--uninstall]
# Copies resources/linux/APP_ID.desktop to $XDG_DATA_HOME/applications (Exec= set to COMMAND, default
# `mcp-inspect` on PATH; give the full path of a venv's or a PyInstaller build's mcp-inspect to use that one), the
# app icon to $XDG_DATA_HOME/icons/hicolor/<size>/apps, and the AppStream metainfo to $XDG_DATA_HOME/metainfo.
# $XDG_DATA_HOME defaults to ~/.local/share. --uninstall removes exactly those files.
set -euo pipefail

APP_ID="io.github.mcp_inspector_desktop.McpInspect"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
resources="$here/resources"
data_home="${XDG_DATA_HOME:-$HOME/.local/share}"
exec_command="mcp-inspect"
uninstall=0

while [[ $# -gt 0 ]]; do
    case "$1" in
        --exec) exec_command="${2:?--exec needs a command}"; shift 2 ;;
        --exec=*) exec_command="${1#--exec=}"; shift ;;
        --uninstall) uninstall=1; shift ;;
        -h|--help) sed -n '2,7s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "install-desktop-entry: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

if [[ ! -f "$resources/linux/$APP_ID.desktop" ]]; then
    echo "install-desktop-entry: $resources/linux/$APP_ID.desktop not found" >&2
    exit 1
fi

icon_files() {  # "<size dir> <source>" per icon: every PNG size and the SVG
    local dir
    for dir in "$resources"/icons/hicolor/*/apps; do
        local size
        size="$(basename "$(dirname "$dir")")"
        for file in "$dir"/"$APP_ID".*; do
            echo "$size $file"
        done
    done
}

refresh_caches() {  # best effort: desktops that cache entries and icons pick the change up at once
    command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$data_home/applications" || true
    command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$data_home/icons/hicolor" || true
}

if [[ $uninstall -eq 1 ]]; then
    rm -f "$data_home/applications/$APP_ID.desktop" "$data_home/metainfo/$APP_ID.metainfo.xml"
    while read -r size file; do
        rm -f "$data_home/icons/hicolor/$size/apps/$(basename "$file")"
    done < <(icon_files)
    refresh_caches
    echo "removed $APP_ID from $data_home"
    exit 0
fi

mkdir -p "$data_home/applications" "$data_home/metainfo"
# Exec= and TryExec= name the command to run; a path with spaces is quoted as the desktop entry spec says.
quoted="$exec_command"
if [[ "$exec_command" == *" "* ]]; then
    quoted="\"$exec_command\""
fi
sed -e "s|^Exec=mcp-inspect|Exec=$quoted|" -e "s|^TryExec=.*|TryExec=$exec_command|" \
    "$resources/linux/$APP_ID.desktop" > "$data_home/applications/$APP_ID.desktop"
cp "$resources/linux/$APP_ID.metainfo.xml" "$data_home/metainfo/"
while read -r size file; do
    mkdir -p "$data_home/icons/hicolor/$size/apps"
    cp "$file" "$data_home/icons/hicolor/$size/apps/"
done < <(icon_files)
refresh_caches
echo "installed $APP_ID into $data_home (Exec=$exec_command)"
