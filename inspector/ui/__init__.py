"""inspector.ui"""
