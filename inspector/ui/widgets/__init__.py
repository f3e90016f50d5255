"""Small shared widgets and helpers every feature may use: style, banners, saving, timers."""
