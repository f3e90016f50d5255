"""The list-and-page design shared by the Tools and Prompts panels: the list model, the list browser and the panel."""
