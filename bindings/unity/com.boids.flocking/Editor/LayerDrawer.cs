// The inspector's layer dropdown for an int marked [Layer] (the controller's draw layer).
using BoidsFlocking.UnityIntegration;
using UnityEditor;
using UnityEngine;

namespace BoidsFlocking.Editor
{
    [CustomPropertyDrawer(typeof(LayerAttribute))]
    public sealed class LayerDrawer : PropertyDrawer
    {
        public override void OnGUI(Rect position, SerializedProperty property, GUIContent label)
        {
            if (property.propertyType != SerializedPropertyType.Integer)
            {
                EditorGUI.LabelField(position, label.text, "[Layer] needs an int field");
                return;
            }
            EditorGUI.BeginProperty(position, label, property);
            property.intValue = EditorGUI.LayerField(position, label, property.intValue);
            EditorGUI.EndProperty();
        }
    }
}
