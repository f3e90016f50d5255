"""inspector.cli"""
