// The UnityEditor types the package's editor scripts use, for compiling them under Mono (the
// editor itself does not run here).
using System;
using UnityEngine;

namespace UnityEngine
{
    public struct Rect { public float x, y, width, height; }
    public class GUIContent { public string text; public GUIContent(string text) { this.text = text; } }
}

namespace UnityEditor
{
    public enum SerializedPropertyType { Generic = -1, Integer = 0, Boolean = 1, Float = 2, String = 3 }

    public class SerializedProperty
    {
        public SerializedPropertyType propertyType { get; set; }
        public int intValue { get; set; }
    }

    public abstract class PropertyDrawer
    {
        public virtual void OnGUI(Rect position, SerializedProperty property, GUIContent label) { }
    }

    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true)]
    public sealed class CustomPropertyDrawer : Attribute { public CustomPropertyDrawer(Type type) { } }

    public static class EditorGUI
    {
        public static int LayerField(Rect position, GUIContent label, int layer) { return layer; }
        public static void LabelField(Rect position, string label, string label2) { }
        public static GUIContent BeginProperty(Rect totalPosition, GUIContent label, SerializedProperty property) { return label; }
        public static void EndProperty() { }
    }
}
