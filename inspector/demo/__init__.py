"""inspector.demo"""
